/*
 * What the pages say about releasing a tag, written once, from the program's rules
 * (program/README.md, "The resting record" and "Where each lamport goes"): a released tag rests
 * 30 days; in that time only its previous owner may register it again; the deposit held by its
 * record comes back when that owner closes the record after the rest. tests/web/release-words.test.ts
 * checks these and every other user-facing string that speaks of release or rent against the rules.
 */

/** The days a released tag rests (the program's REST_SECONDS, 2,592,000 s). */
export const REST_DAYS = 30;

/** The hint under the release form in settings. */
export const RELEASE_HINT =
  `Releasing deletes the profile and gives the tag up. The tag then rests for ${REST_DAYS} days: in that time only you ` +
  'can register it again, and after it anyone may. The deposit its record holds comes back to you when you close the ' +
  `record once the ${REST_DAYS} days are over.`;
