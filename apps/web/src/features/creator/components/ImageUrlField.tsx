/** An image's address field with a preview of the picture once the address is an https:// URL. */
import { Box, Image, Stack, Text, TextInput } from '@mantine/core';
import type { ComponentProps } from 'react';
import { imageUrlProblem } from './creator-words.ts';

export function ImageUrlField({ value, ...input }: ComponentProps<typeof TextInput> & { value: string }) {
  const shown = value.trim() !== '' && imageUrlProblem(value) === null;
  return (
    <Stack gap={6}>
      <TextInput label="Image URL" placeholder="https://" inputMode="url" value={value} {...input} />
      {shown && (
        <Box>
          <Text size="xs" c="dimmed" mb={4}>
            Preview
          </Text>
          <Image
            src={value.trim()}
            alt="Preview of the image"
            h={96}
            w={96}
            fit="contain"
            radius="sm"
            bg="dark.6"
            fallbackSrc="/favicon.svg"
          />
        </Box>
      )}
    </Stack>
  );
}
