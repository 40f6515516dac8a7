import { Link } from 'react-router-dom';
import { buttonClasses } from '#web/components/ui/button.tsx';

/** Spec 02 section 2: any other path shows 'Page Not Found'. */
export default function NotFoundPage() {
  return (
    <section className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-6xl font-bold text-slate-300" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-semibold text-slate-900">Page Not Found</h1>
      <p className="max-w-md text-slate-600">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className={buttonClasses('default')}>
        Go to the home page
      </Link>
    </section>
  );
}
