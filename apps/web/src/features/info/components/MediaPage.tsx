/**
 * SPEC §2 /media: tabs Social Media, Press Releases (a placeholder) and Reports. The social tab links to
 * the community's accounts; it embeds no third-party feed, so no outside script runs on the page.
 */
import { Anchor, Card, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconBrandDiscord, IconBrandX, IconBrandYoutube, IconNews } from '@tabler/icons-react';
import { CHAT_URL } from '../../../lib/links.ts';
import { ReportsList } from './ReportsList.tsx';

const SOCIAL = [
  {
    name: 'Community chat',
    text: 'Announcements, support and the guilds-to-be. The first place news appears.',
    href: CHAT_URL,
    icon: IconBrandDiscord,
  },
  {
    name: 'X (Twitter)',
    text: 'Release notes, events and screenshots from the Reach.',
    href: 'https://x.com/starlight',
    icon: IconBrandX,
  },
  {
    name: 'YouTube',
    text: "Trailers, dev diaries and Orion's Reach gameplay.",
    href: 'https://www.youtube.com/@starlight',
    icon: IconBrandYoutube,
  },
];

export function MediaPage() {
  return (
    <Stack maw={960} mx="auto">
      <Title order={1}>Media</Title>
      <Tabs defaultValue="social" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="social">Social Media</Tabs.Tab>
          <Tabs.Tab value="press">Press Releases</Tabs.Tab>
          <Tabs.Tab value="reports">Reports</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="social" pt="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            {SOCIAL.map(({ name, text, href, icon: Icon }) => (
              <Card key={name} withBorder radius="md">
                <Icon size={28} aria-hidden />
                <Title order={2} size="h4" mt="xs">
                  {name}
                </Title>
                <Text size="sm" c="dimmed" mt={4}>
                  {text}
                </Text>
                <Anchor href={href} target="_blank" rel="noopener noreferrer" mt="sm" size="sm">
                  Open {name}
                </Anchor>
              </Card>
            ))}
          </SimpleGrid>
        </Tabs.Panel>
        <Tabs.Panel value="press" pt="md">
          <Card withBorder radius="md">
            <IconNews size={28} aria-hidden />
            <Text mt="xs">
              Press releases will be published here. For press enquiries, write to us in the community chat.
            </Text>
          </Card>
        </Tabs.Panel>
        <Tabs.Panel value="reports" pt="md">
          <ReportsList />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
