import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { viewFromHash } from './lib/nav.ts';
import { loadScreen } from './screens.ts';
import { firstContent } from './stores/first-content.ts';
import { useProfileStore } from './stores/profile.ts';

const pinia = createPinia();
const app = createApp(App).use(pinia);
const view = viewFromHash(location.hash);
// A profile that could not be opened gets its recovery screen instead of the desk. The screen's
// code and its first rows are asked for meanwhile, so the desk is built and painted once with them.
// (A screen whose code did not come is shown without it; the shell asks again and says why.)
const screen = loadScreen(view).catch(() => undefined);
const [problem] = await Promise.all([useProfileStore().problem(), firstContent(view), screen]);
if (problem) {
  // Once the profile opens, the desk loads as on any start. (The desk-wide styles come with App.vue's, in the one stylesheet.)
  const { default: ProfileRecoveryView } = await import('./views/ProfileRecoveryView.vue');
  createApp(ProfileRecoveryView, { problem, onOpened: () => location.reload() }).use(pinia).mount('#app');
} else {
  app.mount('#app');
}
