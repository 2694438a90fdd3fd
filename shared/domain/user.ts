/** The user an API key belongs to, as every operation sees it. */
export interface AuthenticatedUser {
  readonly userUid: number;
  /** minutes east of GMT; the user's calendar days and displayed times use it */
  readonly gmtOffsetMinutes: number;
}

/** What the key lookup finds for a key hash. */
export interface ApiKeyRecord {
  readonly user: AuthenticatedUser;
  readonly locked: boolean;
  /** a key's last use, recorded to the hour (null: never); a person's record has none */
  readonly lastUsedAt?: string | null;
  /** a signed-in person's record only: who signed in */
  readonly person?: SignedInAs;
}

/** The person behind a bearer token, as the operations they call see them (an api key has none). */
export interface SignedInAs {
  readonly email: string;
}
