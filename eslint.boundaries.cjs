// The architecture's import rules, kept apart so test/unit/architecture.test.ts can prove they bite.
module.exports = [
  {
    // A module's door is its index (its service type, its types): never another module's files.
    files: ['src/modules/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./[a-z-]+/',
              message: "Import another module through its index ('../<module>'), never its repository or internals.",
            },
          ],
        },
      ],
    },
  },
  {
    // The platform is below the modules: it knows none of them.
    files: ['src/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '/modules(/|$)', message: 'The platform must not depend on business modules.' }] },
      ],
    },
  },
];
