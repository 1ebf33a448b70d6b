/**
 * SPEC §2/§4: the Beta Disclaimer (v0.0.1), shown when due (../disclaimer.ts). Accept stays disabled
 * until the box is ticked.
 */
import { Button, Checkbox, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { DISCLAIMER_KEY, DISCLAIMER_VERSION } from '../disclaimer.ts';

/** The dialog, open from the start: the shell mounts it only when the disclaimer is due. */
export function DisclaimerModal() {
  const [opened, setOpened] = useState(true);
  const [agreed, setAgreed] = useState(false);
  const accept = () => {
    const next = new Date();
    next.setMonth(next.getMonth() + 1);
    localStorage.setItem(DISCLAIMER_KEY, JSON.stringify({ version: DISCLAIMER_VERSION, nextShow: next.getTime() }));
    setOpened(false);
  };
  return (
    <Modal
      opened={opened}
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title={`Beta Disclaimer (${DISCLAIMER_VERSION})`}
      size="lg"
      centered
      zIndex={400}
    >
      <ScrollArea.Autosize mah="50vh" type="auto">
        <Stack gap="xs" pr="sm">
          <Text size="sm">
            Starlight is a beta. Everything in it, including its currencies, items, exchange and forge, is provided for
            entertainment only. Starlight is not a bank, a broker or a financial service, and nothing here is financial
            advice.
          </Text>
          <Text size="sm">
            The service is provided "as is" and "as available", without warranty of any kind, express or implied,
            including fitness for a particular purpose, availability, or the absence of errors. Balances and items may
            be reset, corrected or removed while the beta lasts.
          </Text>
          <Text size="sm">
            To the extent the law allows, the Starlight team accepts no liability for any loss or damage arising from
            the use of, or the inability to use, the service.
          </Text>
          <Text size="sm">Please report any bug you find to the team in the community chat: it helps everyone.</Text>
        </Stack>
      </ScrollArea.Autosize>
      <Checkbox
        mt="md"
        label="I have read and agree to the above disclaimer."
        checked={agreed}
        onChange={(e) => setAgreed(e.currentTarget.checked)}
      />
      <Group justify="flex-end" mt="md">
        <Button disabled={!agreed} onClick={accept}>
          {agreed ? 'Accept' : 'Please read…'}
        </Button>
      </Group>
    </Modal>
  );
}
