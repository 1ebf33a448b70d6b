/** SPEC §2 /lightpaper: the lightpaper that ships with the app, embedded, with a link to open it alone. */
import { Anchor, Group, Stack, Title } from '@mantine/core';
import classes from './info.module.css';

const LIGHTPAPER = '/docs/lightpaper.html';

export function LightpaperPage() {
  return (
    <Stack maw={960} mx="auto">
      <Group justify="space-between" align="baseline">
        <Title order={1}>Lightpaper</Title>
        <Anchor href={LIGHTPAPER} target="_blank" rel="noopener">
          Open in a new tab
        </Anchor>
      </Group>
      <iframe title="Starlight lightpaper" src={LIGHTPAPER} className={classes.document} />
    </Stack>
  );
}
