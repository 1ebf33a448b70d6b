/**
 * Gift an item (DESIGN §11.5), opened from a Game Items card: shows the item that goes (one of the group,
 * its newest) and asks for the recipient's nickname. The field is checked as typed against the shared
 * rule before sending; a refusal (unknown recipient, oneself, an item no longer held) shows in the dialog
 * and keeps it open; success toasts the server's message and closes it.
 */
import { Alert, Button, Group, Image, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { formatTotal, type GroupedItem, giftItemRequest } from '@starlight/shared';
import { errorMessage } from '../../../lib/errors.ts';
import { labelWords, wordsOf } from '../../../lib/field-words.ts';
import { schemaValidate } from '../../../lib/form.ts';
import { toastSuccess } from '../../../lib/notify.ts';
import { useGiftItem } from '../api/gift-item.ts';

const words = wordsOf(labelWords({ recipientNickName: 'Recipient nickname' }));

interface Values extends Record<string, unknown> {
  recipientNickName: string;
}

/** `item`: the group to gift one of (null: closed). */
export function GiftItemModal({ item, onClose }: { item: GroupedItem | null; onClose: () => void }) {
  const gift = useGiftItem();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { recipientNickName: '' },
    validate: schemaValidate<Values>(
      giftItemRequest,
      (v) => ({
        itemId: item?.itemId,
        recipientNickName: v.recipientNickName.trim(),
      }),
      words,
    ),
  });

  const close = () => {
    form.reset();
    gift.reset();
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    if (!item) return;
    try {
      const res = await gift.mutateAsync({ itemId: item.itemId, recipientNickName: values.recipientNickName.trim() });
      toastSuccess(res.message);
      close();
    } catch {
      // Shown in the dialog (gift.error).
    }
  });

  return (
    <Modal opened={item !== null} onClose={close} title="Gift an item" centered>
      {item && (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Group wrap="nowrap" align="start" gap="sm">
              <Image src={item.imgUrl || null} alt="" w={56} h={56} radius="sm" fallbackSrc="/favicon.svg" />
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={600} style={{ overflowWrap: 'break-word' }}>
                  {item.name}
                </Text>
                <Text size="sm" c="dimmed">
                  {item.count > 1
                    ? `One of your ${formatTotal(item.count)} goes; you keep the others.`
                    : 'Your only one goes.'}
                </Text>
              </Stack>
            </Group>
            <TextInput
              label="Recipient nickname"
              description="The member who receives it; they are notified."
              required
              data-autofocus
              autoComplete="off"
              {...form.getInputProps('recipientNickName')}
              onChange={(e) => {
                gift.reset();
                form.getInputProps('recipientNickName').onChange(e);
              }}
            />
            {gift.isError && (
              <Alert color="red" variant="light" p="xs" role="alert">
                <Text size="sm">{errorMessage(gift.error)}</Text>
              </Alert>
            )}
            <Text size="sm" c="dimmed">
              A gift cannot be taken back.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={gift.isPending}>
                Send gift
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
