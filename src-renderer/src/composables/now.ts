import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue';

const now = ref(Date.now());
let users = 0;
let timer: ReturnType<typeof setInterval> | null = null;

/**
 * One shared clock ticking every second while any component shows a
 * countdown or an "ago"; it stops when none does.
 */
export function useNow(): Readonly<Ref<number>> {
  onMounted(() => {
    users++;
    now.value = Date.now();
    timer ??= setInterval(() => (now.value = Date.now()), 1000);
  });
  onBeforeUnmount(() => {
    users--;
    if (users === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  });
  return now;
}
