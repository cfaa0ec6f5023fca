import './styles.css';

// The async boundary: before ./bootstrap (and React) runs, the Module Federation runtime has set up the shared
// singletons that remotes will use too.
void import('./bootstrap');
