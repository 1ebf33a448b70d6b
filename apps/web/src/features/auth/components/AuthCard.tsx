/** The centred card of the sign-in and sign-up pages: a title and the form. */
import { Card, Center, Stack, Title } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';

export function AuthCard({
  title,
  width,
  onSubmit,
  children,
}: {
  title: string;
  width: number;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <Center mih="70vh">
      <Card withBorder radius="md" p="xl" w="100%" maw={width}>
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <Title order={2}>{title}</Title>
            {children}
          </Stack>
        </form>
      </Card>
    </Center>
  );
}
