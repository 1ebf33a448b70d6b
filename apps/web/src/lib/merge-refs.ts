/**
 * `useMergeRefs` as Floating UI's React package names it (one callback ref that sets every ref in
 * `refs`), built on Mantine's `useMergedRef`. Mantine's ScrollArea (under every `Table`) imports only this
 * from '@floating-ui/react'; vite.config.ts points that one import here, so a page with a table but no
 * popover, select or tooltip does not load Floating UI.
 */
import { useMergedRef } from '@mantine/hooks';
import type { Ref } from 'react';

export function useMergeRefs<T>(refs: ReadonlyArray<Ref<T> | undefined>): (node: T | null) => void {
  return useMergedRef(...refs);
}
