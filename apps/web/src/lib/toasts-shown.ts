/** Whether any toast was asked for in this page's life: the toast container (app/providers.tsx) loads then. */
import { create } from 'zustand';

/** True once any toast was shown. */
export const useToastsShown = create<{ shown: boolean }>(() => ({ shown: false }));
