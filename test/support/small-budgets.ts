// Imported first by the request budget's tests: configuration is read once, when the first module needs it.
process.env.REQUESTS_PER_MINUTE_ORGANISATION = '12';
process.env.REQUESTS_PER_MINUTE_CLIENT = '8';
