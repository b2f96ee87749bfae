// Imported first by tests of budgets at their production defaults (docs/request-budgets.md): a client's
// lease is then 24 requests, an organisation's 120. Configuration is read once, when the first module
// needs it.
process.env.REQUESTS_PER_MINUTE_ORGANISATION = '6000';
process.env.REQUESTS_PER_MINUTE_CLIENT = '1200';
