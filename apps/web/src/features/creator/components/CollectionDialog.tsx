/**
 * SPEC §2 Creator console's collection dialog: Create Collection (Name, Description, Image URL and the
 * app URLs a consent request may name: redirect URLs one per line, a cancel URL; empty fields dropped)
 * or, for one of the creator's collections, Edit Collection with the same fields (DESIGN §7
 * `modifyCollection`: an emptied field is cleared) and the royalty each marketplace sale pays the creator
 * (DESIGN §11.5, 0 to 25%).
 */
import { Button, Modal, NumberInput, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type CreateCollectionRequest,
  createCollectionRequest,
  formatAmount,
  fromNumeric,
  type ModifyCollectionRequest,
  modifyCollectionRequest,
  type OwnCollection,
  parseAmount,
} from '@starlight/shared';
import { useState } from 'react';
import { DialogFooter } from '../../../components/DialogFooter.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { dropEmpty } from '../../../lib/form.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useCreateCollection } from '../api/create-collection.ts';
import { useModifyCollection } from '../api/modify-collection.ts';
import { creatorWords, imageUrlProblem, serverErrorsIn, validateIn } from './creator-words.ts';
import { ImageUrlField } from './ImageUrlField.tsx';

interface Values extends Record<string, unknown> {
  name: string;
  description: string;
  imgUrl: string;
  redirectUrls: string;
  cancelUrl: string;
  /** The royalty in percent, as typed ("5", "12.5"). */
  royalty: string;
}

/** A royalty fraction ("0.050000000") in percent ("5"). */
export function royaltyPercent(fraction: string): string {
  return formatAmount(fromNumeric(fraction) * 100n).replace(/\.?0+$/, '');
}

/** A typed percent ("12.5") as the fraction the server takes ("0.125"); what cannot be read is sent as typed. */
export function royaltyFraction(percent: string): string {
  const a = parseAmount(percent.trim() === '' ? '0' : percent.trim());
  return a === null ? percent : formatAmount(a / 100n).replace(/\.?0+$/, '') || '0';
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((u) => u.trim())
    .filter(Boolean);

/** The create request of the dialog's values: empty fields dropped, redirect URLs one per line. */
export function toCreateCollection(v: Values): CreateCollectionRequest {
  const urls = lines(v.redirectUrls);
  return dropEmpty({
    name: v.name.trim(),
    description: v.description.trim(),
    imgUrl: v.imgUrl.trim(),
    cancelUrl: v.cancelUrl.trim(),
    ...(urls.length > 0 ? { redirectUrls: urls } : {}),
  }) as CreateCollectionRequest;
}

/** The modify request of the dialog's values: every field sent, an empty one clearing what was stored. */
export function toModifyCollection(collectionId: string, v: Values): ModifyCollectionRequest {
  return {
    collectionId,
    name: v.name.trim(),
    description: v.description.trim(),
    imgUrl: v.imgUrl.trim(),
    redirectUrls: lines(v.redirectUrls),
    cancelUrl: v.cancelUrl.trim(),
    royalty: royaltyFraction(v.royalty),
  };
}

/** Creates a collection (`collection` null) or edits `collection`; `onDone` gets the saved collection's id. */
export function CollectionDialog({
  collection,
  onClose,
  onDone,
}: {
  collection: OwnCollection | null;
  onClose: () => void;
  onDone?: (collectionId: string) => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateCollection();
  const modify = useModifyCollection();
  const editing = collection !== null;
  const request = (v: Values) => (collection ? toModifyCollection(collection._id, v) : toCreateCollection(v));
  const schemaCheck = validateIn<Values>(editing ? modifyCollectionRequest : createCollectionRequest, request);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      name: collection?.name ?? '',
      description: collection?.description ?? '',
      imgUrl: collection?.imgUrl ?? '',
      redirectUrls: collection?.redirectUrls.join('\n') ?? '',
      cancelUrl: collection?.cancelUrl ?? '',
      royalty: collection ? royaltyPercent(collection.royalty) : '0',
    },
    validate: (v) => {
      const errors = schemaCheck(v);
      const image = imageUrlProblem(v.imgUrl);
      return image && !errors.imgUrl ? { ...errors, imgUrl: image } : errors;
    },
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const saved = collection
        ? await modify.mutateAsync(toModifyCollection(collection._id, values))
        : await create.mutateAsync(toCreateCollection(values));
      toastSuccess(saved.message);
      onDone?.(saved.collection._id);
      onClose();
    } catch (err) {
      form.setErrors(serverErrorsIn(err));
      const said = creatorWords(errorMessage(err));
      setFailure(said);
      toastError(said);
    }
  });
  const title = editing ? 'Edit Collection' : 'Create Collection';
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <ImageUrlField {...form.getInputProps('imgUrl')} value={form.values.imgUrl} />
          <Textarea
            label="App redirect URLs"
            description="Where members return after authorising your app, one per line; a request must name one exactly"
            autosize
            minRows={2}
            {...form.getInputProps('redirectUrls')}
          />
          <TextInput label="App cancel URL" placeholder="https://" {...form.getInputProps('cancelUrl')} />
          {editing && (
            <NumberInput
              label="Royalty"
              description="Your share of each marketplace sale of this collection's items, 0 to 25%"
              suffix="%"
              min={0}
              max={25}
              decimalScale={4}
              allowNegative={false}
              {...form.getInputProps('royalty')}
              onChange={(v) => form.setFieldValue('royalty', String(v))}
            />
          )}
          <DialogFooter
            failure={failure}
            onCancel={onClose}
            submit={
              <Button type="submit" loading={create.isPending || modify.isPending}>
                {editing ? 'Save' : 'Create'}
              </Button>
            }
          />
        </Stack>
      </form>
    </Modal>
  );
}
