/** Sharing a link: the share sheet on a touch screen that has one, else the clipboard. */
import type { ChallengeLinkAnswer, ReplayLinkAnswer } from '../shared/api.ts';
import { t } from './i18n.ts';

/** Shares absolute `url`: 'shared' or 'copied'; throws if neither worked. */
export async function shareLink(url: string, title: string): Promise<'shared' | 'copied'> {
  if (typeof navigator.share === 'function' && matchMedia('(pointer: coarse)').matches) {
    await navigator.share({ title, url });
    return 'shared';
  }
  await navigator.clipboard.writeText(url);
  return 'copied';
}

export interface ReplayShared {
  readonly path: string | null; // /replay/<token> or /challenge/<id>; null if none
  readonly message: string; // '' after the share sheet (it said it itself)
}

/** A link the server makes for a game (POST /api/games/:id/<kind>) and its catalog keys. */
const KINDS = {
  replay: { title: 'client.replayTitle', copied: 'client.replayCopied', failed: 'client.replayFailed' },
  challenge: { title: 'client.challengeTitle', copied: 'client.challengeCopied', failed: 'client.challengeFailed' },
} as const;

/** Shares the `kind` link of game `gameId` (`known`, or asked of the server once). */
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

export const shareReplay = (gameId: string, known: string | null, made: (path: string) => void) =>
  shareMade('replay', gameId, known, made);

/** Shares the won game's challenge link (its deal with the time to beat). */
export const shareChallenge = (gameId: string, known: string | null, made: (path: string) => void) =>
  shareMade('challenge', gameId, known, made);
