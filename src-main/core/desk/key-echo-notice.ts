import type { EndpointName } from '../api/endpoints.ts';
import type { ActivityRepo } from '../store/activity-repo.ts';

/**
 * Tells the trader that the service sent the API key back in an answer (the
 * client took it out before anything kept or showed it): an entry in the
 * activity log, which the screen shows as it comes. Once per desk run: a
 * service that echoes the key tends to do it in every answer, and one entry
 * says all there is to say.
 */
export type KeyEchoNotice = (endpoint: EndpointName, activity: Pick<ActivityRepo, 'recordNote'>) => void;

export function keyEchoNotice(): KeyEchoNotice {
  let told = false;
  return (endpoint, activity) => {
    if (told) return;
    told = true;
    activity.recordNote({
      endpoint,
      account: null,
      targets: [],
      note: `The service echoed the API key in an answer of ${endpoint}; it was removed before anything was kept or shown`,
    });
  };
}
