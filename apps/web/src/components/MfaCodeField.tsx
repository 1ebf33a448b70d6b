/**
 * A second-factor code field (DESIGN §11.1): the authenticator app's six digits (numeric keyboard, the
 * browser's one-time-code autofill) or, with `recovery`, a recovery code (`xxxx-xxxx-xxxx`).
 */
import { TextInput, type TextInputProps } from '@mantine/core';

export function MfaCodeField({
  recovery = false,
  ...props
}: Omit<TextInputProps, 'inputMode' | 'autoComplete'> & { recovery?: boolean }) {
  return (
    <TextInput
      label={recovery ? 'Recovery code' : 'Authentication code'}
      placeholder={recovery ? 'xxxx-xxxx-xxxx' : '6-digit code'}
      inputMode={recovery ? 'text' : 'numeric'}
      autoComplete="one-time-code"
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      maxLength={recovery ? 20 : 6}
      {...(recovery ? {} : { pattern: '[0-9]*' })}
      {...props}
    />
  );
}

/** Whether `code` looks complete: six digits, or a recovery code of 12 letters and digits. */
export function isCompleteCode(code: string, recovery: boolean): boolean {
  const typed = code.replace(/[\s-]/g, '');
  return recovery ? /^[a-z2-7]{12}$/i.test(typed) : /^\d{6}$/.test(typed);
}
