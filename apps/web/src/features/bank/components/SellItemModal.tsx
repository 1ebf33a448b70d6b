/**
 * Sell an item on the marketplace (DESIGN §11.5), opened from a Game Items card: the item that goes on
 * sale (one of the group, its newest), a currency that allows transfer and is not frozen, and a price
 * checked as typed at the currency's precision, in words. The royalty is the collection's, known once
 * listed: the dialog then says what the seller receives after it and links to My listings. A refusal
 * (an item already listed, a currency that forbids transfer) shows in the dialog and keeps it open.
 */
import { Alert, Anchor, Button, Group, Image, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  fitsPrecision,
  type GroupedItem,
  type ListingResponse,
  MIN_AMOUNT,
  parseAmount,
  precisionMessage,
} from '@starlight/shared';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { fractionToPercent } from '../../../lib/percent.ts';
import { useCreateListing } from '../api/create-listing.ts';

/** What is wrong with the price `text` at `precision` decimals, in words; null when it can be sent. */
export function priceProblem(text: string, precision: number | undefined): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'Price is required';
  const a = parseAmount(trimmed);
  if (a === null) return 'Price must be a number, like 12.50';
  if (a < MIN_AMOUNT) return 'Price must be at least 0.01';
  if (precision !== undefined && !fitsPrecision(a, precision)) return precisionMessage('Price', precision);
  return null;
}

/** `item`: the group to list one of (null: closed). */
export function SellItemModal({ item, onClose }: { item: GroupedItem | null; onClose: () => void }) {
  const create = useCreateListing();
  const { data: currencies = [], byId } = useCurrencies();
  const sellable = currencies.filter((c) => c.canTransfer && !c.isFrozen);
  const [currencyId, setCurrencyId] = useState<string | null>(null);
  const [price, setPrice] = useState('');
  const [tried, setTried] = useState(false);
  const [listed, setListed] = useState<ListingResponse | null>(null);
  const currency = currencyId ? byId.get(Number(currencyId)) : undefined;
  const problem = priceProblem(price, currency?.precision);
  const shownProblem = price.trim() !== '' || tried ? problem : null;

  const close = () => {
    setCurrencyId(null);
    setPrice('');
    setTried(false);
    setListed(null);
    create.reset();
    onClose();
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!item || !currency || problem !== null) return;
    try {
      setListed(
        await create.mutateAsync({ itemId: item.itemId, currencyId: currency.currencyId, price: price.trim() }),
      );
    } catch {
      // Shown in the dialog (create.error).
    }
  };

  const fmt = (amount: string) => formatMoneyWithTicker(amount, currency);
  return (
    <Modal opened={item !== null} onClose={close} title="Sell an item" centered>
      {item && (
        <Stack>
          <Group wrap="nowrap" align="start" gap="sm">
            <Image src={item.imgUrl || null} alt="" w={56} h={56} radius="sm" fallbackSrc="/favicon.svg" />
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fw={600} style={{ overflowWrap: 'break-word' }}>
                {item.name}
              </Text>
              <Text size="sm" c="dimmed">
                {item.count > 1 ? `One of your ${item.count} goes on sale.` : 'Your only one goes on sale.'} While
                listed it cannot be gifted or used.
              </Text>
            </Stack>
          </Group>
          {listed ? (
            <>
              <Alert color="green" variant="light" p="xs" role="status">
                <Text size="sm" fw={600}>
                  {listed.message}
                </Text>
                <Text size="sm" data-testid="sell-receives">
                  You receive {fmt(listed.listing.sellerReceives)} after the collection's{' '}
                  {fractionToPercent(listed.listing.royalty)}% royalty.
                </Text>
              </Alert>
              <Group justify="space-between">
                <Anchor component={Link} to="/market" size="sm" onClick={close}>
                  See it in the Market
                </Anchor>
                <Button onClick={close} data-autofocus>
                  Done
                </Button>
              </Group>
            </>
          ) : (
            <form onSubmit={(e) => void submit(e)} noValidate>
              <Stack>
                <Select
                  label="Currency"
                  description="Currencies that can be transferred and are not frozen"
                  required
                  placeholder="Choose a currency"
                  data-autofocus
                  data={sellable.map((c) => ({ value: String(c.currencyId), label: `${c.name} (${c.ticker})` }))}
                  value={currencyId}
                  onChange={(v) => {
                    create.reset();
                    setCurrencyId(v);
                  }}
                  error={tried && !currency ? 'Currency is required' : undefined}
                />
                <TextInput
                  label="Price"
                  description={
                    currency
                      ? `In ${currency.ticker}, at most ${currency.precision} decimals. The collection's royalty comes out of it.`
                      : "The collection's royalty comes out of it."
                  }
                  required
                  inputMode="decimal"
                  autoComplete="off"
                  value={price}
                  onChange={(e) => {
                    create.reset();
                    setPrice(e.currentTarget.value);
                  }}
                  error={shownProblem}
                  inputWrapperOrder={['label', 'description', 'input', 'error']}
                />
                {create.isError && (
                  <Alert color="red" variant="light" p="xs" role="alert">
                    <Text size="sm">{errorMessage(create.error)}</Text>
                  </Alert>
                )}
                <Group justify="flex-end">
                  <Button variant="default" onClick={close}>
                    Cancel
                  </Button>
                  <Button type="submit" loading={create.isPending}>
                    List for sale
                  </Button>
                </Group>
              </Stack>
            </form>
          )}
        </Stack>
      )}
    </Modal>
  );
}
