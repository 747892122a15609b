import { shallowReactive, type Component } from 'vue';
import type { ViewId } from './lib/nav.ts';

/**
 * The desk's screens, each its own chunk: a window loads and runs the code
 * of the screen it shows, not of all ten, and the next screen's code comes
 * when it is first opened. main.ts asks for the first screen's code beside
 * its first content, so both are on their way at once and the window is
 * built once, with the screen in it.
 */
const LOADERS: Record<ViewId, () => Promise<{ default: Component }>> = {
  overview: () => import('./views/OverviewView.vue'),
  listings: () => import('./views/ListingsView.vue'),
  'buy-orders': () => import('./views/BuyOrdersView.vue'),
  trades: () => import('./views/TradesView.vue'),
  history: () => import('./views/HistoryView.vue'),
  accounts: () => import('./views/AccountsView.vue'),
  drafts: () => import('./views/DraftsView.vue'),
  activity: () => import('./views/ActivityView.vue'),
  settings: () => import('./views/SettingsView.vue'),
  pricing: () => import('./views/PricingView.vue'),
};

const loaded = shallowReactive(new Map<ViewId, Component>());
const loading = new Map<ViewId, Promise<void>>();

/** Loads a screen's code, once; a load that failed is tried again when asked again. */
export function loadScreen(view: ViewId): Promise<void> {
  let load = loading.get(view);
  if (load === undefined) {
    load = LOADERS[view]().then(
      (module) => void loaded.set(view, module.default),
      (error: unknown) => {
        loading.delete(view);
        throw error;
      },
    );
    loading.set(view, load);
  }
  return load;
}

/** The screen's component once its code is in (reactive: a screen whose load ends is shown then); null before. */
export function loadedScreen(view: ViewId): Component | null {
  return loaded.get(view) ?? null;
}
