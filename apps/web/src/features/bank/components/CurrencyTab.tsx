/**
 * SPEC §2 Admin Console, Currency (the default tab): Create / Modify / Mint / Burn Currency dialogs
 * and the CurrencyStats panel.
 */
import { Alert, Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatTotal } from '@starlight/shared';
import { IconFlame, IconPencil, IconPlus, IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';
import { AdminSection } from '../../../components/AdminSection.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { CreateCurrencyModal } from './CreateCurrencyModal.tsx';
import { CurrencyStatsPanel } from './CurrencyStatsPanel.tsx';
import { ModifyCurrencyModal } from './ModifyCurrencyModal.tsx';
import { SettlementsPanel } from './SettlementsPanel.tsx';
import { SupplyModal } from './SupplyModal.tsx';

type Dialog = 'create' | 'modify' | 'mint' | 'burn' | null;

export function CurrencyTab() {
  const [dialog, setDialog] = useState<Dialog>(null);
  const currencies = useCurrencies();
  const close = () => setDialog(null);

  return (
    <Stack gap="lg">
      <AdminSection
        id="currency-control-title"
        title="Currency"
        gap="sm"
        aside={
          <Text size="sm" c="dimmed">
            {currencies.data ? `${formatTotal(currencies.data.length)} currencies` : ''}
          </Text>
        }
      >
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <Button
            leftSection={<IconPlus size={18} />}
            onClick={() => setDialog('create')}
            data-testid="open-create-currency"
          >
            Create Currency
          </Button>
          <Button
            variant="light"
            leftSection={<IconPencil size={18} />}
            onClick={() => setDialog('modify')}
            data-testid="open-modify-currency"
          >
            Modify Currency
          </Button>
          <Button
            variant="light"
            color="teal"
            leftSection={<IconSparkles size={18} />}
            onClick={() => setDialog('mint')}
            data-testid="open-mint"
          >
            Mint Currency
          </Button>
          <Button
            variant="light"
            color="red"
            leftSection={<IconFlame size={18} />}
            onClick={() => setDialog('burn')}
            data-testid="open-burn"
          >
            Burn Currency
          </Button>
        </SimpleGrid>
        {currencies.isError && (
          <Alert color="red" variant="light" role="alert">
            No currencies loaded, please refresh page. ({errorMessage(currencies.error)})
          </Alert>
        )}
      </AdminSection>
      <CurrencyStatsPanel />
      <SettlementsPanel />
      <CreateCurrencyModal opened={dialog === 'create'} onClose={close} />
      <ModifyCurrencyModal opened={dialog === 'modify'} onClose={close} />
      <SupplyModal action="mint" opened={dialog === 'mint'} onClose={close} />
      <SupplyModal action="burn" opened={dialog === 'burn'} onClose={close} />
    </Stack>
  );
}
