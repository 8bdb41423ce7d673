/**
 * The tag registry's fixed address on localnet (and the default of `TAG_PROGRAM_ID`).
 * LiteSVM loads the program at this address; no deploy keypair is needed there.
 */
export const LOCALNET_PROGRAM_ID = '23mktYT6uv5MykiUhTnzUjSVVaSg82mQQLpQ4rUC1K6M';
