import './styles.css';
import { startHost } from './startup/start-host';

// Before the async boundary: the page's requests and the remote modules of its public slots travel while React
// and the shell load. ./bootstrap runs once the Module Federation runtime has set up the shared singletons that
// remotes will use too. The fallback module of a failed remote renders React, so it is imported only when a load
// fails (by then the shell's chunk holding it is loaded or on its way).
const startup = startHost({
  fallbackModule: (request) =>
    import('./core/fallback-module').then(({ createFallbackModule }) => createFallbackModule(request)),
});
void import('./bootstrap').then(({ renderHost }) => renderHost(startup));
