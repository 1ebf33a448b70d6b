/**
 * The creator's item dialog (DESIGN §7): Create Item in one of their collections (Owner: the member who
 * receives it, the creator by default; Name, Description, Image URL with a preview, Metadata as a JSON
 * object) or Edit Item with the same fields but the owner, who keeps the item (`modifyItem`: an emptied
 * description or image is cleared). Every rule is checked, in words, before anything is sent.
 */
import { Button, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type CreateItemRequest,
  createItemRequest,
  type Item,
  type ModifyItemRequest,
  modifyItemRequest,
} from '@starlight/shared';
import { useState } from 'react';
import { DialogFooter } from '../../../components/DialogFooter.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { dropEmpty } from '../../../lib/form.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useCreateItem, useModifyItem } from '../api/collection-items.ts';
import { creatorWords, imageUrlProblem, parseMetadata, serverErrorsIn, validateIn } from './creator-words.ts';
import { ImageUrlField } from './ImageUrlField.tsx';

interface Values extends Record<string, unknown> {
  owner: string;
  name: string;
  description: string;
  imgUrl: string;
  metadata: string;
}

const metadataOf = (text: string) => {
  const parsed = parseMetadata(text);
  return 'data' in parsed ? parsed.data : {};
};

/** The create request of the dialog's values (empty description and image dropped). */
export function toCreateItem(itemCollection: string, v: Values): CreateItemRequest {
  return {
    itemCollection,
    owner: v.owner.trim(),
    name: v.name.trim(),
    ...dropEmpty({ description: v.description.trim(), imgUrl: v.imgUrl.trim() }),
    metadata: metadataOf(v.metadata),
  };
}

/** The modify request of the dialog's values: every field sent, an empty one clearing what was stored. */
export function toModifyItem(itemId: string, v: Values): ModifyItemRequest {
  return {
    itemId,
    name: v.name.trim(),
    description: v.description.trim(),
    imgUrl: v.imgUrl.trim(),
    metadata: metadataOf(v.metadata),
  };
}

/** Creates an item in `collectionId` (`item` null) or edits `item`. */
export function ItemDialog({
  collectionId,
  item,
  onClose,
}: {
  collectionId: string;
  item: Item | null;
  onClose: () => void;
}) {
  const me = useSession((s) => s.user?.nickname ?? '');
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateItem();
  const modify = useModifyItem();
  const request = (v: Values) => (item ? toModifyItem(item._id, v) : toCreateItem(collectionId, v));
  const schemaCheck = validateIn<Values>(item ? modifyItemRequest : createItemRequest, request);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      owner: item?.owner.nickname ?? me,
      name: item?.name ?? '',
      description: item?.description ?? '',
      imgUrl: item?.imgUrl ?? '',
      metadata: item && Object.keys(item.metadata).length > 0 ? JSON.stringify(item.metadata, null, 2) : '',
    },
    validate: (v) => {
      const errors = schemaCheck(v);
      const image = imageUrlProblem(v.imgUrl);
      if (image && !errors.imgUrl) errors.imgUrl = image;
      const metadata = parseMetadata(v.metadata);
      if ('problem' in metadata) errors.metadata = metadata.problem;
      return errors;
    },
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const saved = item
        ? await modify.mutateAsync(toModifyItem(item._id, values))
        : await create.mutateAsync(toCreateItem(collectionId, values));
      toastSuccess(item ? saved.message : `Item ${saved.item.name} created`);
      onClose();
    } catch (err) {
      form.setErrors(serverErrorsIn(err));
      const said = creatorWords(errorMessage(err));
      setFailure(said);
      toastError(said);
    }
  });
  return (
    <Modal opened onClose={onClose} title={item ? 'Edit Item' : 'Create Item'} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {item ? (
            <TextInput label="Owner" value={item.owner.nickname} readOnly description="The member who holds the item" />
          ) : (
            <TextInput
              label="Owner"
              required
              description="The nickname of the member who receives the item (you, by default)"
              {...form.getInputProps('owner')}
            />
          )}
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <ImageUrlField {...form.getInputProps('imgUrl')} value={form.values.imgUrl} />
          <Textarea
            label="Metadata"
            description='A JSON object of text, numbers, true or false and nested objects, e.g. {"class": "scout"}'
            placeholder="{}"
            autosize
            minRows={3}
            maxRows={12}
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            {...form.getInputProps('metadata')}
          />
          <DialogFooter
            failure={failure}
            onCancel={onClose}
            submit={
              <Button type="submit" loading={create.isPending || modify.isPending}>
                {item ? 'Save' : 'Create'}
              </Button>
            }
          />
        </Stack>
      </form>
    </Modal>
  );
}
