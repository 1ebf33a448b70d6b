/** SPEC §2 navigation: left menu, right menu; the icon bars and the phone menu mirror them. */
import {
  IconBolt,
  IconBuildingStore,
  IconChartLine,
  IconCpu,
  IconDeviceGamepad2,
  IconGift,
  IconHelpCircle,
  IconHome,
  IconMessages,
  IconPhoto,
  IconShoppingCart,
  IconTrophy,
  IconUser,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { CHAT_URL } from '../lib/links.ts';

export interface NavItem {
  label: string;
  to: string;
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
  external?: boolean;
}

export const LEFT_MENU: NavItem[] = [
  { label: 'Home', to: '/', icon: IconHome },
  { label: 'Rewards', to: '/underdev', icon: IconGift },
  { label: 'Analytics', to: '/analytics', icon: IconChartLine },
  { label: 'Media', to: '/media', icon: IconPhoto },
  { label: 'Quantum Hub', to: '/quantumhub', icon: IconBolt },
  { label: 'Games', to: '/games', icon: IconDeviceGamepad2 },
];

export const RIGHT_MENU: NavItem[] = [
  { label: 'Account', to: '/dashboard', icon: IconUser },
  { label: 'Community', to: CHAT_URL, icon: IconMessages, external: true },
  { label: 'Leader Board', to: '/leaderboard', icon: IconTrophy },
  { label: 'FaQ', to: '/Faq', icon: IconHelpCircle },
  { label: 'Buy Credits', to: '/checkout', icon: IconShoppingCart },
  { label: 'Synth Chips', to: '/synthchips', icon: IconCpu },
  { label: 'Market', to: '/market', icon: IconBuildingStore },
];
