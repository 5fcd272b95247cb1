/**
 * Sharing a link the way every page of the game does it (the play page's Share, the win panel's and the stats
 * page's Share replay): the system's share sheet on a touch screen that has one, else the clipboard. A replay
 * link is made by the server once (POST /api/games/:id/replay) and then kept by the caller.
 */
import type { ReplayLinkAnswer } from '../shared/api.ts';
import { t } from './i18n.ts';

/** Shares `url` (absolute): 'shared' through the share sheet, else 'copied'; throws if neither worked (refused, or cancelled). */
export async function shareLink(url: string, title: string): Promise<'shared' | 'copied'> {
  if (typeof navigator.share === 'function' && matchMedia('(pointer: coarse)').matches) {
    await navigator.share({ title, url });
    return 'shared';
  }
  await navigator.clipboard.writeText(url);
  return 'copied';
}

export interface ReplayShared {
  readonly path: string | null; // the replay's path (/replay/<token>), null if the server made none
  readonly message: string; // what to tell the player ('' after the share sheet: it said it itself)
}

/**
 * Shares the replay of the player's game `gameId`: its link is `known` (a path) or asked of the server, handed
 * to `made` as soon as there is one (so the page shows it before the share sheet opens), then shared.
 */
export async function shareReplay(
  gameId: string,
  known: string | null,
  made: (path: string) => void,
): Promise<ReplayShared> {
  let path = known;
  try {
    if (path === null) {
      const res = await fetch(`/api/games/${encodeURIComponent(gameId)}/replay`, {
        method: 'POST',
        credentials: 'same-origin',
      });
      const body = (await res.json()) as Partial<ReplayLinkAnswer> & { error?: string };
      if (!res.ok || typeof body.url !== 'string') throw new Error(body.error ?? `the server answered ${res.status}`);
      path = body.url;
    }
    made(path);
    const how = await shareLink(`${location.origin}${path}`, t('client.replayTitle'));
    return { path, message: how === 'copied' ? t('client.replayCopied') : '' };
  } catch {
    return {
      path,
      message: path === null ? t('client.replayFailed') : t('client.shareThis', { url: `${location.origin}${path}` }),
    };
  }
}
