import { Link } from 'wouter';
import { Prose, PublicPage } from './page-layout';

/** /privacy: what a self-hosted hub keeps, where, and what leaves it. */
export function PrivacyPage() {
  return (
    <PublicPage
      title="Privacy"
      intro="Nexus Console runs on a hub in your home. This page says what it stores, where, and what ever leaves the hub."
    >
      <Prose>
        <h2 id="stays">What stays on the hub</h2>
        <ul>
          <li>
            <strong>Accounts</strong>: name, e-mail address, role, and the password as an argon2id hash (the
            password itself is never stored). Two-factor secrets are stored encrypted.
          </li>
          <li>
            <strong>Sessions</strong>: for each signed-in browser, when it signed in and was last seen, its
            address and browser name. Signing out ends that session; changing your password in Account
            Settings ends all your others.
          </li>
          <li>
            <strong>Your setup</strong>: settings, flows, wake-word samples, notifications and the history the
            dashboard and analytics draw on.
          </li>
          <li>
            <strong>Secrets you enter</strong> (such as the Home Assistant token or API keys) are encrypted
            with a key kept in the hub's data directory and are never sent back to the browser.
          </li>
        </ul>
        <p>
          All of it lives in one database file and one key file in the hub's data directory. Whoever controls
          the hub controls this data: back the directory up, and keep the hub where strangers cannot reach it.
        </p>

        <h2 id="leaves">What leaves the hub</h2>
        <p>Only what you set up to leave it:</p>
        <ul>
          <li>
            <strong>Cloud language models</strong>: if you add a cloud provider, the text of the requests
            routed to it goes to that provider under its own terms. Local models on the hub's Ollama keep
            everything on the hub.
          </li>
          <li>
            <strong>E-mail</strong>: if the owner configures an SMTP server, password-reset links are sent
            through it to the account's address.
          </li>
          <li>
            <strong>Remote access</strong>: a VPN or UniFi Teleport connection carries your own traffic to the
            hub.
          </li>
        </ul>
        <p>
          Home Assistant, Ollama and your satellites are on your own network; the hub talks to them there. The
          console contains no analytics, advertising or tracking, and loads nothing from other sites.
        </p>

        <h2 id="browser">In your browser</h2>
        <p>
          One cookie holds your session; scripts cannot read it. If you ask to be remembered it lasts 30 days,
          otherwise it ends with the browser session. Your light or dark theme choice is kept in the browser's
          local storage under <code>theme</code>.
        </p>

        <h2 id="logs">Logs</h2>
        <p>
          The hub logs each API request (method, path, status and duration) and failed sign-ins (the e-mail
          address tried and the client address) so its owner can spot problems and attacks. Passwords, codes
          and tokens are never logged.
        </p>

        <h2 id="control">Your control</h2>
        <p>
          Administrators can delete accounts in User Management; an account's sessions, notifications, flows,
          FlowForge API keys and saved chats go with it (the deployment history keeps its entries without the
          name). Questions about a hub's data go to its owner, since it is their device. See also the{' '}
          <Link href="/terms">Terms</Link>.
        </p>
      </Prose>
    </PublicPage>
  );
}
