import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { viewFromHash } from './lib/nav.ts';
import { firstContent } from './stores/first-content.ts';
import { useProfileStore } from './stores/profile.ts';
import ProfileRecoveryView from './views/ProfileRecoveryView.vue';

const pinia = createPinia();
const app = createApp(App).use(pinia);
// A profile that could not be opened gets its recovery screen instead of the desk. The screen's
// first rows are asked for meanwhile, so the desk is built and painted once with them.
const [problem] = await Promise.all([
  useProfileStore().problem(),
  firstContent(viewFromHash(location.hash)),
]);
if (problem) {
  // Once the profile opens, the desk loads as on any start. (The desk-wide styles come with App.vue's, in the one stylesheet.)
  createApp(ProfileRecoveryView, { problem, onOpened: () => location.reload() }).use(pinia).mount('#app');
} else {
  app.mount('#app');
}
