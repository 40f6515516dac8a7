import { Link } from 'react-router-dom';
import {
  BarChart3,
  Calculator,
  CalendarRange,
  CheckCircle2,
  HardHat,
  ListChecks,
  ShieldCheck,
  Smartphone,
  Users,
} from 'lucide-react';
import { buttonClasses } from '#web/components/ui/button.tsx';
import { TaskCanvasPreview } from './components/task-canvas-preview.tsx';

/** Spec 01 section 9: marketing figures. */
export const MARKETING = { trialDays: 14, pricePerSite: 89, roiMonths: 3, uptime: '99.9%' } as const;

const ANCHORS = [
  { label: 'Product', href: '#product' },
  { label: 'Pricing', href: '#pricing' },
  { label: 'Customers', href: '#customers' },
  { label: 'Resources', href: '#resources' },
];

const FEATURES = [
  {
    title: 'Advanced Security',
    icon: ShieldCheck,
    text: 'Role-based access control, SOC-2 compliance and GDPR readiness keep every project in the right hands.',
  },
  {
    title: 'Team Collaboration',
    icon: Users,
    text: 'Crews, managers and subcontractors share tasks, logs and photos in one place.',
  },
  {
    title: 'Analytics & Insights',
    icon: BarChart3,
    text: 'Project health, budgets and progress at a glance, with the numbers behind them.',
  },
  {
    title: 'Task Management',
    icon: ListChecks,
    text: 'Plan, assign and track every task with priorities, due dates and status.',
  },
];

const SHOWCASE = [
  {
    title: 'Scheduling',
    icon: CalendarRange,
    text: 'Visual timelines, Gantt charts and calendars. Crews request schedule changes; managers approve them.',
  },
  {
    title: 'Cost Control',
    icon: Calculator,
    text: 'Budgets against actual costs with automated budget alerts before overruns happen.',
  },
  {
    title: 'Field Reporting',
    icon: Smartphone,
    text: 'Mobile-first site diaries and photos that work with no signal and sync when the crew is back online.',
  },
];

const TESTIMONIALS = [
  {
    quote: 'Our supervisors file their diaries from the basement levels now. Nothing gets lost.',
    name: 'Dana Whitfield',
    role: 'Operations Director, Summit Builders',
  },
  {
    quote: 'We caught a budget overrun three weeks earlier than we would have with spreadsheets.',
    name: 'Marcus Lee',
    role: 'Project Manager, Harbor Construction',
  },
  {
    quote: 'The crew picked it up in a morning. The schedule finally matches what happens on site.',
    name: 'Priya Raman',
    role: 'Site Supervisor, Northgate Civil',
  },
];

const PLAN_FEATURES = [
  'All features included',
  `${MARKETING.trialDays}-day free trial, no credit card`,
  `Average ROI in ${MARKETING.roiMonths} months`,
  '24/7 support',
  `${MARKETING.uptime} uptime SLA`,
  'SOC-2 compliant and GDPR ready',
];

const FOOTER_COLUMNS = [
  {
    title: 'Product',
    links: [
      { label: 'Features', href: '#product' },
      { label: 'Pricing', href: '#pricing' },
      { label: 'Sign In', to: '/login' },
    ],
  },
  {
    title: 'Customers',
    links: [
      { label: 'Testimonials', href: '#customers' },
      { label: 'Book a Demo', to: '/login' },
    ],
  },
  {
    title: 'Resources',
    links: [
      { label: 'Scheduling', href: '#showcase' },
      { label: 'Cost Control', href: '#showcase' },
      { label: 'Field Reporting', href: '#showcase' },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'Security', href: '#product' },
      { label: 'Start Free Trial', to: '/login' },
    ],
  },
];

export default function LandingPage() {
  return (
    <div className="min-h-screen bg-white text-slate-900">
      <header className="fixed inset-x-0 top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 px-4 py-2 md:h-16 md:py-0">
          <a href="#top" className="flex h-12 items-center gap-2 font-bold md:h-auto">
            <HardHat className="h-6 w-6 text-teal-700" aria-hidden="true" />
            SiteCommand
          </a>
          <Link to="/login" className={buttonClasses('default', 'sm', 'ml-auto md:order-last md:ml-4')}>
            Sign In
          </Link>
          <nav aria-label="Sections" className="w-full pb-1 md:ml-auto md:w-auto md:pb-0">
            <ul className="flex gap-5 text-sm text-slate-700 md:gap-6">
              {ANCHORS.map((a) => (
                <li key={a.href}>
                  <a
                    href={a.href}
                    className="inline-flex min-h-11 items-center hover:text-teal-700 md:min-h-0"
                  >
                    {a.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </header>

      <main id="top">
        <section className="bg-gradient-to-b from-teal-50 to-white px-4 pt-32 pb-16 md:pt-28">
          <div className="mx-auto grid max-w-6xl items-center gap-12 lg:grid-cols-2">
            <div>
              <p className="mb-3 inline-block rounded-full bg-teal-100 px-3 py-1 text-sm font-medium text-teal-800">
                360° Project Management
              </p>
              <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">
                The command center for every construction site
              </h1>
              <p className="mt-4 text-lg text-slate-600">
                Tasks, schedules, costs, photos and site diaries for project managers, site supervisors and
                operations directors. It keeps working on site with no signal.
              </p>
              <div className="mt-8 flex flex-wrap gap-3">
                <Link to="/login" className={buttonClasses('default', 'lg')}>
                  Get Started
                </Link>
                <a href="#product" className={buttonClasses('outline', 'lg')}>
                  Learn More
                </a>
              </div>
              <p className="mt-4 text-sm text-slate-500">
                Free {MARKETING.trialDays}-day trial. No credit card required.
              </p>
            </div>
            <TaskCanvasPreview />
          </div>
        </section>

        <section
          id="product"
          aria-labelledby="product-title"
          className="scroll-mt-28 md:scroll-mt-20 px-4 py-16"
        >
          <div className="mx-auto max-w-6xl">
            <h2 id="product-title" className="text-center text-3xl font-bold">
              Everything a site team needs
            </h2>
            <p className="mx-auto mt-3 max-w-2xl text-center text-slate-600">
              Task management, scheduling, cost control, field reporting, collaboration, analytics and
              role-based access control in one app.
            </p>
            <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {FEATURES.map((f) => (
                <article key={f.title} className="rounded-xl border border-slate-200 p-6 shadow-sm">
                  <f.icon className="h-8 w-8 text-teal-700" aria-hidden="true" />
                  <h3 className="mt-4 text-lg font-semibold">{f.title}</h3>
                  <p className="mt-2 text-sm text-slate-600">{f.text}</p>
                </article>
              ))}
            </div>
          </div>
        </section>

        <section
          id="showcase"
          aria-labelledby="showcase-title"
          className="scroll-mt-28 md:scroll-mt-20 bg-slate-50 px-4 py-16"
        >
          <div className="mx-auto max-w-6xl">
            <h2 id="showcase-title" className="text-center text-3xl font-bold">
              Built for the way sites run
            </h2>
            <div className="mt-10 grid gap-6 md:grid-cols-3">
              {SHOWCASE.map((s) => (
                <article key={s.title} className="rounded-xl bg-white p-6 shadow-sm">
                  <s.icon className="h-8 w-8 text-teal-700" aria-hidden="true" />
                  <h3 className="mt-4 text-lg font-semibold">{s.title}</h3>
                  <p className="mt-2 text-sm text-slate-600">{s.text}</p>
                </article>
              ))}
            </div>
          </div>
        </section>

        <section
          id="customers"
          aria-labelledby="customers-title"
          className="scroll-mt-28 md:scroll-mt-20 px-4 py-16"
        >
          <div className="mx-auto max-w-6xl">
            <h2 id="customers-title" className="text-center text-3xl font-bold">
              Trusted by builders
            </h2>
            <div className="mt-10 grid gap-6 md:grid-cols-3">
              {TESTIMONIALS.map((t) => (
                <figure key={t.name} className="rounded-xl border border-slate-200 p-6">
                  <blockquote className="text-slate-700">“{t.quote}”</blockquote>
                  <figcaption className="mt-4 text-sm">
                    <span className="font-semibold">{t.name}</span>
                    <span className="block text-slate-500">{t.role}</span>
                  </figcaption>
                </figure>
              ))}
            </div>
          </div>
        </section>

        <section
          id="pricing"
          aria-labelledby="pricing-title"
          className="scroll-mt-28 md:scroll-mt-20 bg-slate-50 px-4 py-16"
        >
          <div className="mx-auto max-w-md text-center">
            <h2 id="pricing-title" className="text-3xl font-bold">
              Simple pricing
            </h2>
            <div className="mt-8 rounded-2xl border border-teal-200 bg-white p-8 shadow-lg">
              <p className="text-sm font-medium text-teal-800">Per site</p>
              <p className="mt-2">
                <span className="text-5xl font-extrabold">${MARKETING.pricePerSite}</span>
                <span className="text-slate-500"> per site per month</span>
              </p>
              <ul className="mt-6 space-y-2 text-left text-sm">
                {PLAN_FEATURES.map((line) => (
                  <li key={line} className="flex items-center gap-2">
                    <CheckCircle2 className="h-4 w-4 shrink-0 text-teal-700" aria-hidden="true" />
                    {line}
                  </li>
                ))}
              </ul>
              <Link to="/login" className={buttonClasses('default', 'lg', 'mt-8 w-full')}>
                Start Free Trial
              </Link>
            </div>
          </div>
        </section>

        <section aria-labelledby="cta-title" className="bg-teal-800 px-4 py-16 text-center text-white">
          <h2 id="cta-title" className="text-3xl font-bold">
            See SiteCommand on your own projects
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-teal-100">
            A product specialist walks you through it with your team. Average ROI in {MARKETING.roiMonths}{' '}
            months.
          </p>
          <Link to="/login" className={buttonClasses('secondary', 'lg', 'mt-8')}>
            Book a Demo
          </Link>
        </section>
      </main>

      <footer id="resources" className="scroll-mt-28 md:scroll-mt-20 border-t border-slate-200 px-4 py-12">
        <div className="mx-auto grid max-w-6xl gap-8 sm:grid-cols-2 md:grid-cols-4">
          {FOOTER_COLUMNS.map((col) => (
            <nav key={col.title} aria-label={`${col.title} links`}>
              <h2 className="text-sm font-semibold text-slate-900">{col.title}</h2>
              <ul className="mt-3 space-y-2 text-sm text-slate-600">
                {col.links.map((l) => (
                  <li key={l.label}>
                    {'to' in l && l.to ? (
                      <Link
                        to={l.to}
                        className="inline-flex min-h-11 items-center hover:text-teal-700 md:min-h-0"
                      >
                        {l.label}
                      </Link>
                    ) : (
                      <a
                        href={'href' in l ? l.href : '#top'}
                        className="inline-flex min-h-11 items-center hover:text-teal-700 md:min-h-0"
                      >
                        {l.label}
                      </a>
                    )}
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <p className="mx-auto mt-10 max-w-6xl text-sm text-slate-500">
          © SiteCommand. Construction management that works with no signal.
        </p>
      </footer>
    </div>
  );
}
