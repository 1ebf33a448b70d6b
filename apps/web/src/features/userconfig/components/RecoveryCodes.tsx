/**
 * Recovery codes, shown once (DESIGN §11.1): the ten codes with Copy and Download (a .txt file), and
 * Done, after which they are not shown again.
 */
import { Alert, Button, Code, CopyButton, Group, SimpleGrid, Stack } from '@mantine/core';
import { IconCopy, IconDownload } from '@tabler/icons-react';
import { toastSuccess } from '../../../lib/notify.ts';

/** The codes as a text file, one a line, with what they are. */
function asText(codes: readonly string[]): string {
  return [
    'Starlight recovery codes',
    'Each code signs you in once when you cannot use your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}

function download(codes: readonly string[]): void {
  const url = URL.createObjectURL(new Blob([asText(codes)], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'starlight-recovery-codes.txt';
  a.click();
  URL.revokeObjectURL(url);
}

export function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  return (
    <Stack gap="sm">
      <Alert color="yellow" title="Save your recovery codes now">
        They will not be shown again. Each one signs you in once if you lose your phone.
      </Alert>
      <SimpleGrid cols={2} spacing="xs" data-testid="recovery-codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <Code key={c} fz="sm" ta="center">
            {c}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="xs">
        <CopyButton value={codes.join('\n')}>
          {({ copy }) => (
            <Button
              variant="default"
              size="xs"
              leftSection={<IconCopy size={14} />}
              onClick={() => {
                copy();
                toastSuccess('Recovery codes copied to clipboard');
              }}
            >
              Copy
            </Button>
          )}
        </CopyButton>
        <Button variant="default" size="xs" leftSection={<IconDownload size={14} />} onClick={() => download(codes)}>
          Download
        </Button>
        <Button size="xs" onClick={onDone}>
          I have saved them
        </Button>
      </Group>
    </Stack>
  );
}
