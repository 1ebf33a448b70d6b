/**
 * Whether the phone menu is open: the toasts step aside while it is, so no notice ever lies
 * over a menu item. Set by the menu (app/PhoneMenu.tsx), read by the toast container (app/Toasts.tsx).
 */
import { create } from 'zustand';

/** `open` is true while the phone menu's drawer is open. */
export const useMenuOpen = create<{ open: boolean }>(() => ({ open: false }));
