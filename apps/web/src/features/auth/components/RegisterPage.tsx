/**
 * SPEC §2 register: nickname, e-mail, password, confirmation, optional referrer (filled from
 * /register/{nickname}). Live match hints, inline schema messages in words (each field's label and SPEC §5
 * rule, lib/field-words.ts: 'Nickname must be 3 to 32 letters or digits'), the button disabled with
 * 'Complete all fields' until all are filled, empty fields dropped. Or register with a wallet (with the
 * referrer when one is filled).
 */
import { Anchor, Button, Divider, PasswordInput, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { registerRequest } from '@starlight/shared';
import { getRouteApi, Link } from '@tanstack/react-router';
import { errorMessage, fieldErrors } from '../../../lib/errors.ts';
import { inWords } from '../../../lib/field-words.ts';
import { dropEmpty, schemaValidate } from '../../../lib/form.ts';
import { toastError } from '../../../lib/notify.ts';
import { useRegister } from '../api/register.ts';
import { useEnterApp } from '../hooks/use-enter-app.ts';
import { AuthCard } from './AuthCard.tsx';
import { WalletButton } from './WalletButton.tsx';

interface Values extends Record<string, unknown> {
  nickname: string;
  email: string;
  password: string;
  confirmation: string;
  referrer: string;
}

const toRequest = ({ confirmation: _c, ...v }: Values) => dropEmpty(v);

export function RegisterPage({ referrer = '' }: { referrer?: string }) {
  const enterApp = useEnterApp();
  const register = useRegister();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { nickname: '', email: '', password: '', confirmation: '', referrer },
    validate: schemaValidate<Values>(registerRequest, toRequest, inWords),
    validateInputOnBlur: true,
  });
  const v = form.values;
  const complete = [v.nickname, v.email, v.password, v.confirmation].every((x) => x.trim() !== '');
  const mismatch = v.confirmation !== '' && v.password !== v.confirmation;
  const matchHint =
    v.confirmation === '' ? undefined : mismatch ? (
      <Text size="xs" c="red" role="status">
        Passwords do not match
      </Text>
    ) : (
      <Text size="xs" c="teal" role="status">
        Passwords match
      </Text>
    );

  const submit = form.onSubmit(async (values) => {
    if (values.password !== values.confirmation) {
      toastError('Passwords do not match');
      return;
    }
    try {
      const res = await register.mutateAsync(toRequest(values) as Parameters<typeof register.mutateAsync>[0]);
      await enterApp(res);
    } catch (err) {
      form.setErrors(Object.fromEntries(Object.entries(fieldErrors(err)).map(([f, m]) => [f, inWords(m)])));
      toastError(inWords(errorMessage(err)));
    }
  });

  return (
    <AuthCard title="Create your account" width={460} onSubmit={submit}>
      <TextInput label="Nickname" autoComplete="username" required {...form.getInputProps('nickname')} />
      <TextInput label="E-mail" type="email" autoComplete="email" required {...form.getInputProps('email')} />
      <PasswordInput
        label="Password"
        description="8 to 32 characters with a lowercase and an uppercase letter, a digit and a symbol"
        autoComplete="new-password"
        required
        {...form.getInputProps('password')}
      />
      <PasswordInput
        label="Confirm password"
        autoComplete="new-password"
        required
        {...form.getInputProps('confirmation')}
        error={mismatch ? ' ' : undefined}
      />
      {matchHint}
      <TextInput label="Referrer (optional)" {...form.getInputProps('referrer')} />
      <Button type="submit" loading={register.isPending} disabled={!complete || mismatch}>
        {complete ? 'Register' : 'Complete all fields'}
      </Button>
      <Divider label="or" labelPosition="center" />
      <WalletButton mode="register" referrer={v.referrer.trim()} />
      <Text size="sm" c="dimmed">
        Already a member?{' '}
        <Anchor component={Link} to="/login">
          Sign in
        </Anchor>
      </Text>
    </AuthCard>
  );
}

const referredRoute = getRouteApi('/register/$referrerId');

/** /register/{nickname}: the form with the referrer filled in (SPEC §2). */
export function RegisterReferred() {
  const { referrerId } = referredRoute.useParams();
  return <RegisterPage referrer={referrerId} />;
}
