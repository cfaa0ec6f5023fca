import { Link } from 'react-router-dom';
import { PageHeading } from '../../layout/page-heading';

export function NotFoundPage() {
  return (
    <div className="page">
      <PageHeading title="Page not found" />
      <p>
        There is nothing at this address. <Link to="/">Go to the dashboard</Link>.
      </p>
    </div>
  );
}
