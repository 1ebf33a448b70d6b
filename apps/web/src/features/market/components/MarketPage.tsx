/**
 * The marketplace page /market (DESIGN §11.5): Browse (public: open listings to buy) and My listings
 * (signed-in members: their listings with cancel). Items are put up for sale from Game Items.
 */
import { Anchor, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconBuildingStore } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useSession } from '../../../lib/session.ts';
import { BrowseListings } from './BrowseListings.tsx';
import { MyListings } from './MyListings.tsx';

export function MarketPage() {
  const user = useSession((s) => s.user);
  return (
    <Stack maw={1100} mx="auto" gap="md" w="100%">
      <Group gap="xs">
        <IconBuildingStore size={28} aria-hidden />
        <Title order={1} size="h2">
          Market
        </Title>
      </Group>
      <Text c="dimmed" size="sm">
        Buy items other members sell. To sell one of yours, open Game Items on your{' '}
        <Anchor component={Link} to="/userbank" size="sm">
          bank page
        </Anchor>{' '}
        and choose Sell.
      </Text>
      <Tabs defaultValue="browse" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="browse">Browse</Tabs.Tab>
          <Tabs.Tab value="mine">My listings</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="browse" pt="md">
          <BrowseListings />
        </Tabs.Panel>
        <Tabs.Panel value="mine" pt="md">
          {user ? (
            <MyListings />
          ) : (
            <Anchor component={Link} to="/login">
              Log in to see your listings
            </Anchor>
          )}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
