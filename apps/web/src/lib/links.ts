/** Outside addresses the app links to (SPEC §1: menus link to an external chat community). */

/** The community chat (opens in a new tab). */
export const CHAT_URL = 'https://discord.com/invite/starlight';
