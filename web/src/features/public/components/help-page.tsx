import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { CLI_RESET_COMMAND } from '@nexus/agent/contract';
import { Faq, Prose, PublicPage } from './page-layout';

/** /help: getting started, then questions about the hub, satellites, Home Assistant and wake words. */
export function HelpPage() {
  return (
    <PublicPage
      title="Help"
      intro="How to get your Nexus hub running, and answers to the questions owners ask most."
    >
      <Prose>
        <h2 id="getting-started">Getting started</h2>
        <ol>
          <li>
            Start the hub. The console is served by the hub itself on port 8080: open{' '}
            <code>http://&lt;hub address&gt;:8080</code> from a computer or phone on the same network.
          </li>
          <li>
            <Link href="/auth">Create an account</Link>. The first account on a hub becomes its owner (Super
            Admin); later accounts are ordinary users until an administrator changes their role.
          </li>
          <li>
            Follow <Link href="/nexus-setup">Nexus Setup</Link> to connect Home Assistant, a language model
            and your voice satellites.
          </li>
          <li>
            Open the dashboard to see the hub's health, and turn on two-factor authentication in Account
            Settings.
          </li>
        </ol>
      </Prose>

      <section aria-labelledby="faq-heading" className="mt-12 space-y-8">
        <h2 id="faq-heading" className="text-xl font-semibold tracking-tight">
          Frequently asked questions
        </h2>

        <FaqGroup title="The hub">
          <Faq question="What is the Nexus hub?">
            <p>
              A small computer (an NVIDIA Jetson) in your home that runs the console, the voice pipeline and
              the services around it. The console reads the hub's real hardware figures and manages its
              containers.
            </p>
          </Faq>
          <Faq question="Where is my data kept?">
            <p>
              In one database file on the hub, in its data directory. Tokens and keys you enter are encrypted
              there with a key that never leaves the hub. See <Link href="/privacy">Privacy</Link>.
            </p>
          </Faq>
          <Faq question="I forgot my password. What now?">
            <p>
              Use <Link href="/forgot-password">Forgot password</Link>. If the hub can send e-mail you get a
              reset link; otherwise the hub's owner resets it from the hub's command line with{' '}
              <code>{CLI_RESET_COMMAND}</code>.
            </p>
          </Faq>
          <Faq question="Can I reach the hub from outside my home?">
            <p>
              Yes, over a VPN. The hub's VPN connections and their status are under Network &amp; Security.
            </p>
          </Faq>
        </FaqGroup>

        <FaqGroup title="Satellites">
          <Faq question="What is a satellite?">
            <p>
              A voice endpoint in a room: a microphone and speaker that listens for the wake word and sends
              what you say to the hub.
            </p>
          </Faq>
          <Faq question="How do I add one?">
            <p>
              Power it on in the same network and pair it under Satellite Management. The list shows each
              satellite's status, signal strength, active wake word and when it was last seen.
            </p>
          </Faq>
          <Faq question="A satellite shows as offline.">
            <p>
              It has not reported to the hub recently. Check its power and Wi-Fi; a weak signal (far below -60
              dBm) makes it drop out.
            </p>
          </Faq>
        </FaqGroup>

        <FaqGroup title="Home Assistant">
          <Faq question="How do I connect Home Assistant?">
            <p>
              Create a long-lived access token in your Home Assistant profile and enter its address and the
              token under Home Assistant connection setup. The hub stores the token encrypted and talks to
              Home Assistant for you, so your browser never needs it.
            </p>
          </Faq>
          <Faq question="The connection test fails.">
            <p>
              Check that the hub can reach Home Assistant's address (not only your computer), that the token
              is still valid, and that Home Assistant is running. Answers slower than 500 ms are shown as
              slow.
            </p>
          </Faq>
        </FaqGroup>

        <FaqGroup title="Wake words">
          <Faq question="Can I train my own wake word?">
            <p>
              Yes. Record samples on several devices (50 or more give a robust model), let the console check
              each for noise, clipping and silence, then train for the wake-word engine your satellites use
              and deploy the generated configuration.
            </p>
          </Faq>
          <Faq question="Can others help record samples?">
            <p>
              Yes: a crowdsourcing page (<code>/crowdsource/&lt;wake word&gt;</code>) is open to visitors
              without an account, so friends and family can record samples in their browser.
            </p>
          </Faq>
        </FaqGroup>
      </section>

      <Prose className="mt-12">
        <p>
          More in the <Link href="/docs">documentation</Link>, including the hub's API.
        </p>
      </Prose>
    </PublicPage>
  );
}

function FaqGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3">
      <h3 className="font-semibold">{title}</h3>
      <div className="space-y-2">{children}</div>
    </section>
  );
}
