import { createRoot } from 'react-dom/client'
import { App } from './App.js'
import { startFrame } from './frame.js'
import './frame.css'

const controller = startFrame()
createRoot(document.getElementById('root') as HTMLElement).render(<App controller={controller} />)
