import './styles.css';
import { startHost } from './startup/start-host';

// Before the async boundary: the page's requests and the remote modules of its public slots travel while React
// and the shell load. ./bootstrap runs once the Module Federation runtime has set up the shared singletons that
// remotes will use too.
const startup = startHost();
void import('./bootstrap').then(({ renderHost }) => renderHost(startup));
