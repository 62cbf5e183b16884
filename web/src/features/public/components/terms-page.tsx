import { Link } from 'wouter';
import { Prose, PublicPage } from './page-layout';

/** /terms: the honest terms of an alpha, self-hosted product. */
export function TermsPage() {
  return (
    <PublicPage title="Terms" intro="The terms of using Nexus Console on your own hub, in plain words.">
      <Prose>
        <h2 id="alpha">Alpha software</h2>
        <p>
          Nexus Console is in alpha. Screens are still being built, and some say so. It is provided as it is,
          without warranty of any kind: do not rely on it alone for safety-critical uses such as locks, alarms
          or medical needs.
        </p>

        <h2 id="your-hub">Your hub, your responsibility</h2>
        <ul>
          <li>
            The console runs on hardware you own and keeps its data there (see{' '}
            <Link href="/privacy">Privacy</Link>
            ). You are responsible for who can reach the hub, for the accounts you create on it and for
            backing up its data directory.
          </li>
          <li>
            The first account on a hub is its owner. The owner can reset any account's password from the hub's
            command line and decides who else gets an account.
          </li>
          <li>Use the console for your own home and with the consent of the people it records or watches.</li>
        </ul>

        <h2 id="services">Other services</h2>
        <p>
          Home Assistant, Ollama and the models you run on it, cloud language-model providers and your VPN
          each come with their own licences and terms, which apply when you connect them.
        </p>

        <h2 id="recordings">Contributed recordings</h2>
        <p>
          Wake-word samples recorded on a crowdsourcing page are stored on the hub that shared the page and
          are used to train that wake word. Do not record other people without their consent.
        </p>

        <h2 id="plans">Plans</h2>
        <p>
          Plans and their limits are listed on the <Link href="/pricing">pricing page</Link>, in US dollars
          per month.
        </p>

        <h2 id="changes">Changes</h2>
        <p>
          These terms may change with new versions of the console; the version on your hub is the one that
          applies.
        </p>
      </Prose>
    </PublicPage>
  );
}
