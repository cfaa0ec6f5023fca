import { Link } from 'react-router-dom';
import { PageHeading } from '../../layout/page-heading';

/** What staff without the operator role see at an operators' page: what it is for, and a way on. */
export function OperatorsOnlyPage({ what = 'The releases of remotes are' }: { what?: string }) {
  return (
    <div className="page" data-operators-only>
      <PageHeading title="Operators only" />
      <p>{what} for staff with the operator role. Ask an operator if you need a change.</p>
      <p>
        <Link to="/">Back to the dashboard</Link>
      </p>
    </div>
  );
}
