import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <div className="page">
      <h1 className="page__title">Page not found</h1>
      <p>
        There is nothing at this address. <Link to="/">Go to the dashboard</Link>.
      </p>
    </div>
  );
}
