import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { viewFromHash } from './lib/nav.ts';
import { firstContent } from './stores/first-content.ts';

const app = createApp(App).use(createPinia());
// The screen's first rows are asked for before the window is built, so it is built and painted once with them.
await firstContent(viewFromHash(location.hash));
app.mount('#app');
