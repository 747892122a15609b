/** The heartbeat: keeps the account marked as automated while the app runs. */
export {
  createHeartbeat,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  EXPIRY_MARGIN_MS,
  type Heartbeat,
  type HeartbeatOptions,
  type HeartbeatState,
  type HeartbeatStatus,
} from './heartbeat.ts';
