import actresses from './actresses';
import health from './health';
import images from './images';
import movies from './movies';
import operators from './operators';
import system from './system';

/** Every module's sub-app, mounted under /app. A new module adds one line here (and its tables to db/schema.ts). */
export const modules = [health, operators, system, movies, images, actresses];
