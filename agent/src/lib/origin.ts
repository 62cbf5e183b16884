/**
 * A stored secret (a Home Assistant token, a provider's API key) goes only to the origin it was
 * entered for: whoever changes the address must enter the secret again, so an admin's session
 * cannot be used to send a saved token to a server of someone else's choosing.
 */
export function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
