/**
 * A Mantine `Select` whose code (the combobox and its floating dropdown, with Floating UI) loads on the
 * member's first move towards it: pointer over it, a touch or focus. Until then the same input stands in
 * its place, with the same label, chosen option, chevron and combobox role, so a page that shows a picker
 * does not load the dropdown's code to draw it. The swap keeps focus: a focused stand-in hands it to the
 * `Select`, which opens its list as a focused `Select` does.
 */
import { ComboboxChevron, type ComboboxItem, InputBase, type SelectProps } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, useState, useTransition } from 'react';

const Select = lazy(() => import('./mantine-select.ts').then((m) => ({ default: m.Select<string> })));

export type DeferredSelectProps = Omit<SelectProps, 'data'> & { data: ComboboxItem[] };

export function DeferredSelect(props: DeferredSelectProps) {
  const { data, value, label, w, placeholder, disabled, searchable, size } = props;
  const [isWanted, setWanted] = useState(false);
  const [, startTransition] = useTransition();
  // Whether the stand-in held focus when the Select replaced it (read as React detaches it).
  const hadFocus = useRef(false);
  const standInRef = (node: HTMLInputElement | null) => {
    if (!node) return;
    return () => {
      hadFocus.current = document.activeElement === node;
    };
  };
  const selectRef = useRef<HTMLInputElement>(null);

  // Kept on screen (a transition) until the Select's code has arrived.
  const want = () => {
    if (!isWanted) startTransition(() => setWanted(true));
  };
  useEffect(() => {
    if (isWanted && hadFocus.current) selectRef.current?.focus();
  }, [isWanted]);

  const standIn = (
    <InputBase
      ref={standInRef}
      label={label}
      w={w}
      size={size}
      placeholder={placeholder}
      disabled={disabled}
      value={data.find((item) => item.value === value)?.label ?? ''}
      readOnly
      pointer={!searchable}
      role="combobox"
      aria-haspopup="listbox"
      aria-expanded={false}
      autoComplete="off"
      rightSection={<ComboboxChevron size={size} />}
      rightSectionPointerEvents="none"
      onPointerEnter={want}
      onTouchStart={want}
      onFocus={want}
    />
  );
  // One boundary from the start: in a transition it keeps the stand-in (and its focus) until the swap.
  return <Suspense fallback={standIn}>{isWanted ? <Select ref={selectRef} {...props} /> : standIn}</Suspense>;
}
