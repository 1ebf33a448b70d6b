/**
 * The step-up code of a guarded action (DESIGN §11.1: withdraw, a new API key, a new e-mail or password),
 * shown in the action's own dialog when the member has a second factor: the authenticator app's code or
 * a recovery code.
 */
import { TextInput, type TextInputProps } from '@mantine/core';

export function StepUpCodeField(props: Omit<TextInputProps, 'label' | 'autoComplete'>) {
  return (
    <TextInput
      label="Two-factor code"
      description="From your authenticator app, or a recovery code"
      placeholder="123456"
      autoComplete="one-time-code"
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      maxLength={20}
      required
      {...props}
    />
  );
}

/** The body's `mfaCode` for a typed step-up code: none when the member has no second factor or left it empty. */
export function stepUpCode(needed: boolean, typed: string): { mfaCode?: string } {
  return needed && typed.trim() !== '' ? { mfaCode: typed.trim() } : {};
}
