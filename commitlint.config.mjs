// Commit messages (`make test` checks every commit after the one that added this file):
// a subject `area: what changed` of at most 72 characters, the area the part of the code it touches
// (`bank`, `web`, `exchange.orders`, `docs`, ...); the reasoning and the figures in the body, after a blank line.
export default {
  parserPreset: {
    parserOpts: {
      headerPattern: /^([a-z0-9][a-z0-9./-]*): (.+)$/,
      headerCorrespondence: ['type', 'subject'],
    },
  },
  rules: {
    'header-max-length': [2, 'always', 72],
    'type-empty': [2, 'never'],
    'type-case': [2, 'always', 'lower-case'],
    'subject-empty': [2, 'never'],
    'subject-full-stop': [2, 'never', '.'],
    'body-leading-blank': [2, 'always'],
  },
};
