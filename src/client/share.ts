/**
 * Sharing a link the way every page of the game does it (the play page's Share, the win panel's and the stats
 * page's Share replay and Challenge a friend): the system's share sheet on a touch screen that has one, else the
 * clipboard. A replay or challenge link is made by the server once (POST /api/games/:id/replay or /challenge) and
 * then kept by the caller.
 */
import type { ChallengeLinkAnswer, ReplayLinkAnswer } from '../shared/api.ts';
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
  readonly path: string | null; // the link's path (/replay/<token>, /challenge/<id>), null if the server made none
  readonly message: string; // what to tell the player ('' after the share sheet: it said it itself)
}

/** A link the server makes for a game (POST /api/games/:id/<kind>) and the words of sharing it (catalog keys). */
const KINDS = {
  replay: { title: 'client.replayTitle', copied: 'client.replayCopied', failed: 'client.replayFailed' },
  challenge: { title: 'client.challengeTitle', copied: 'client.challengeCopied', failed: 'client.challengeFailed' },
} as const;

/**
 * Shares the `kind` link of the player's game `gameId`: its link is `known` (a path) or asked of the server,
 * handed to `made` as soon as there is one (so the page shows it before the share sheet opens), then shared.
 */
async function shareMade(
  kind: keyof typeof KINDS,
  gameId: string,
  known: string | null,
  made: (path: string) => void,
): Promise<ReplayShared> {
  const words = KINDS[kind];
  let path = known;
  try {
    if (path === null) {
      const res = await fetch(`/api/games/${encodeURIComponent(gameId)}/${kind}`, {
        method: 'POST',
        credentials: 'same-origin',
      });
      const body = (await res.json()) as Partial<ReplayLinkAnswer | ChallengeLinkAnswer> & { error?: string };
      if (!res.ok || typeof body.url !== 'string') throw new Error(body.error ?? `the server answered ${res.status}`);
      path = body.url;
    }
    made(path);
    const how = await shareLink(`${location.origin}${path}`, t(words.title));
    return { path, message: how === 'copied' ? t(words.copied) : '' };
  } catch {
    return {
      path,
      message: path === null ? t(words.failed) : t('client.shareThis', { url: `${location.origin}${path}` }),
    };
  }
}

/** Shares the replay of the player's game `gameId` (shareMade). */
export const shareReplay = (gameId: string, known: string | null, made: (path: string) => void) =>
  shareMade('replay', gameId, known, made);

/** Shares the challenge link of the player's won game `gameId` (shareMade): its deal with the time to beat. */
export const shareChallenge = (gameId: string, known: string | null, made: (path: string) => void) =>
  shareMade('challenge', gameId, known, made);
