// Entry point: reads ?token= and ?trace= from the page URL and starts the shell.
import './app/style.css';
import { Shell } from './app/shell';

const params = new URLSearchParams(window.location.search);
const host = document.getElementById('app') ?? document.body;
const shell = new Shell(host, { token: params.get('token'), trace: params.get('trace') });
void shell.start();
