/** Mantine's `Select` on its own, for `DeferredSelect`'s `lazy()` (a dynamic import of '@mantine/core' would load all of it). */
export { Select } from '@mantine/core';
