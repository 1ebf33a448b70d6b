/**
 * SPEC §2 /Faq: the questions of the static FAQ file, one accordion per category (economy, ip, p2e,
 * randc, guilds, orionsreach); answers keep their line breaks and bold segments.
 */
import { Accordion, Alert, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { Fragment, useEffect, useState } from 'react';
import { type Faq, loadFaq } from '../utils/faq-data.ts';
import { parseRichText } from '../utils/rich-text.ts';

function Answer({ text }: { text: string }) {
  return (
    <Stack gap={6}>
      {parseRichText(text).map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a fixed answer
        <Text key={i} size="sm">
          {line.map((s, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the segments of a fixed line
            <Fragment key={j}>{s.bold ? <b>{s.text}</b> : s.text}</Fragment>
          ))}
        </Text>
      ))}
    </Stack>
  );
}

export function FaqPage() {
  const [faq, setFaq] = useState<Faq | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry button's trigger
  useEffect(() => {
    let live = true;
    setError(null);
    loadFaq().then(
      (data) => live && setFaq(data),
      (err: Error) => live && setError(err.message || 'Network Error'),
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  return (
    <Stack maw={860} mx="auto" gap="lg">
      <div>
        <Title order={1}>Frequently asked questions</Title>
        <Text c="dimmed" mt={4}>
          The economy, the universe, play to earn, rewards, guilds and Orion's Reach.
        </Text>
      </div>
      {error && !faq && (
        <Alert color="red" title="The FAQ could not be loaded">
          <Text size="sm">{error}</Text>
          <Button size="xs" mt="sm" variant="light" color="red" onClick={() => setAttempt((a) => a + 1)}>
            Try again
          </Button>
        </Alert>
      )}
      {!faq && !error && <Loader aria-label="Loading the FAQ" />}
      {faq?.categories.map((category) => (
        <section key={category.id} aria-labelledby={`faq-${category.id}`}>
          <Title order={2} size="h3" id={`faq-${category.id}`} mb="xs">
            {category.title}
          </Title>
          <Accordion variant="separated" radius="md">
            {category.entries.map((entry) => (
              <Accordion.Item key={entry.question} value={entry.question}>
                <Accordion.Control>{entry.question}</Accordion.Control>
                <Accordion.Panel>
                  <Answer text={entry.answer} />
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        </section>
      ))}
    </Stack>
  );
}
