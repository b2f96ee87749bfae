// Imported first by tests that inspect logs: configuration is read once, when the first module needs it.
process.env.LOG_LEVEL = 'debug';
