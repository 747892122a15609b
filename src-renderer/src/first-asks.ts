import { askEarly } from './bridge/early-asks.ts';
import { firstAsksFor } from './lib/first-asks.ts';
import { viewFromHash } from './lib/nav.ts';

// A module of its own, run before the app's (index.html lists it first): the window's first questions
// go to main while the app's code is still loading, and their answers wait for the stores.
askEarly((globalThis as { api?: Window['api'] }).api, firstAsksFor(viewFromHash(location.hash)));
