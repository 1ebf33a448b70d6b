/**
 * Admin Console, Cex Control: the Create Trading Pair and Modify dialogs. The name is composed from the
 * two currencies and shown read-only (DESIGN §5); the maker and taker fees (DESIGN §11.4) are edited as
 * percents and sent as fractions;
 * Modify sends only the fields that changed. The currencies of a pair never change.
 */
import { Button, Checkbox, Group, Modal, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { CreatePairRequest, ModifyPairRequest, Pair } from '@starlight/shared';
import { useState } from 'react';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError } from '../../../lib/notify.ts';
import { fractionToPercent, percentToFraction } from '../../../lib/percent.ts';
import { useCreatePair } from '../api/create-pair.ts';
import { useModifyPair } from '../api/modify-pair.ts';
import { toastServerMessage } from '../utils/messages.ts';

interface Values {
  buyCurrency: string;
  sellCurrency: string;
  canBuy: boolean;
  canSell: boolean;
  visible: boolean;
  frozen: boolean;
  frozenNote: string;
  makerPercent: string;
  takerPercent: string;
  feeCollector: string;
}

function initialValues(pair: Pair | null): Values {
  return {
    buyCurrency: pair ? String(pair.buyCurrency) : '',
    sellCurrency: pair ? String(pair.sellCurrency) : '',
    canBuy: pair?.canBuy ?? true,
    canSell: pair?.canSell ?? true,
    visible: pair?.visible ?? true,
    frozen: pair?.frozen ?? false,
    frozenNote: pair?.frozenNote ?? '',
    makerPercent: pair ? fractionToPercent(pair.makerFee) : '0',
    takerPercent: pair ? fractionToPercent(pair.takerFee) : '0',
    feeCollector: pair?.feeCollector ?? '',
  };
}

function PairForm({ pair, onClose }: { pair: Pair | null; onClose: () => void }) {
  const currencies = useCurrencies();
  const create = useCreatePair();
  const modify = useModifyPair();
  const [v, setV] = useState<Values>(() => initialValues(pair));
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setV((old) => ({ ...old, [key]: value }));
  // SPEC: currency ids <= 0 are not tradable.
  const options = (currencies.data ?? []).filter((c) => c.currencyId > 0);
  const nameOf = (id: string) => options.find((c) => String(c.currencyId) === id)?.name;
  const buyName = nameOf(v.buyCurrency);
  const sellName = nameOf(v.sellCurrency);
  const name = buyName && sellName ? `${buyName} → ${sellName}` : '';
  const makerFee = percentToFraction(v.makerPercent);
  const takerFee = percentToFraction(v.takerPercent);
  const sameCurrency = v.buyCurrency !== '' && v.buyCurrency === v.sellCurrency;
  const ready =
    v.buyCurrency !== '' && v.sellCurrency !== '' && !sameCurrency && makerFee !== null && takerFee !== null;
  const busy = create.isPending || modify.isPending;

  const submit = async () => {
    if (!ready || makerFee === null || takerFee === null) return;
    try {
      if (!pair) {
        const body: CreatePairRequest = {
          buyCurrency: Number(v.buyCurrency),
          sellCurrency: Number(v.sellCurrency),
          canBuy: v.canBuy,
          canSell: v.canSell,
          visible: v.visible,
          frozen: v.frozen,
          makerFee,
          takerFee,
          feeCollector: v.feeCollector.trim(),
          ...(v.frozenNote.trim() ? { frozenNote: v.frozenNote.trim() } : {}),
        };
        toastServerMessage((await create.mutateAsync(body)).message);
      } else {
        const body: ModifyPairRequest = { pairId: pair._id };
        if (v.canBuy !== pair.canBuy) body.canBuy = v.canBuy;
        if (v.canSell !== pair.canSell) body.canSell = v.canSell;
        if (v.visible !== pair.visible) body.visible = v.visible;
        if (v.frozen !== pair.frozen) body.frozen = v.frozen;
        if (v.frozenNote.trim() !== pair.frozenNote) body.frozenNote = v.frozenNote.trim();
        if (makerFee !== percentToFraction(fractionToPercent(pair.makerFee))) body.makerFee = makerFee;
        if (takerFee !== percentToFraction(fractionToPercent(pair.takerFee))) body.takerFee = takerFee;
        if (v.feeCollector.trim() !== pair.feeCollector) body.feeCollector = v.feeCollector.trim();
        if (Object.keys(body).length === 1) {
          toastError('Nothing to change');
          return;
        }
        toastServerMessage((await modify.mutateAsync(body)).message);
      }
      onClose();
    } catch (err) {
      toastError(errorMessage(err));
    }
  };

  const currencyData = [
    { value: '', label: 'Choose a currency', disabled: true },
    ...options.map((c) => ({ value: String(c.currencyId), label: `${c.ticker} · ${c.name}` })),
  ];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <NativeSelect
            label="Buy currency"
            description="The asset traded"
            data={currencyData}
            value={v.buyCurrency}
            disabled={pair !== null}
            onChange={(e) => set('buyCurrency', e.currentTarget.value)}
          />
          <NativeSelect
            label="Sale currency"
            description="What it is paid in"
            data={currencyData}
            value={v.sellCurrency}
            disabled={pair !== null}
            error={sameCurrency ? 'Choose two different currencies' : undefined}
            onChange={(e) => set('sellCurrency', e.currentTarget.value)}
          />
        </SimpleGrid>
        <TextInput label="Name" value={pair?.name ?? name} readOnly placeholder="Composed from the currencies" />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="Maker fee (%)"
            description="Of the proceeds of the order that rested"
            inputMode="decimal"
            value={v.makerPercent}
            error={makerFee === null ? 'A percent from 0 to 100' : undefined}
            onChange={(e) => set('makerPercent', e.currentTarget.value)}
          />
          <TextInput
            label="Taker fee (%)"
            description="Of the proceeds of the order that matched"
            inputMode="decimal"
            value={v.takerPercent}
            error={takerFee === null ? 'A percent from 0 to 100' : undefined}
            onChange={(e) => set('takerPercent', e.currentTarget.value)}
          />
        </SimpleGrid>
        <TextInput
          label="Fee collector"
          description="Nickname; empty burns the fees"
          value={v.feeCollector}
          onChange={(e) => set('feeCollector', e.currentTarget.value)}
        />
        <Group gap="lg">
          <Checkbox label="Can buy" checked={v.canBuy} onChange={(e) => set('canBuy', e.currentTarget.checked)} />
          <Checkbox label="Can sell" checked={v.canSell} onChange={(e) => set('canSell', e.currentTarget.checked)} />
          <Checkbox label="Visible" checked={v.visible} onChange={(e) => set('visible', e.currentTarget.checked)} />
          <Checkbox label="Frozen" checked={v.frozen} onChange={(e) => set('frozen', e.currentTarget.checked)} />
        </Group>
        <TextInput
          label="Frozen note"
          description="Shown to members while the pair is frozen"
          value={v.frozenNote}
          onChange={(e) => set('frozenNote', e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" disabled={!ready} loading={busy}>
            {pair ? 'Modify' : 'Create'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** `pair` null: Create Trading Pair; otherwise Modify that pair. */
export function PairFormModal({ opened, pair, onClose }: { opened: boolean; pair: Pair | null; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={pair ? 'Modify Trading Pair' : 'Create Trading Pair'} size="lg">
      {opened && <PairForm key={pair?._id ?? 'new'} pair={pair} onClose={onClose} />}
    </Modal>
  );
}
