/** The demo data, loaded once per bench run: the overhead and start-up parts both read it. */
import { type DemoCredentials, loadDemoData } from '../../infra/local/demo-data';

let loaded: Promise<DemoCredentials> | undefined;

export const demoData = (): Promise<DemoCredentials> => {
  loaded ??= loadDemoData();
  return loaded;
};
